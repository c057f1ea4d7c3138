/* A header of another library under sys/ (libacl's sys/acl.h, libcap's
 * sys/capability.h): its functions are that library's. */
int acl_like_fn(int x);
