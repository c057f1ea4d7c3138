int extra_fn(double d);
