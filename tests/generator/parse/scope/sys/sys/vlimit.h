/* One of the C library's sys/ headers: its functions are libc's. */
int fake_vlimit_fn(int x);
