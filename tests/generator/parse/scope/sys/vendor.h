int vendor_fn(void);
