/* The C interface of libfdemo. */
int fdemo_version(void);
