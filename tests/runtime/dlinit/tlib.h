int t_value(int v);
