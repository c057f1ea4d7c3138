int fake_std_impl(int x); /* below an out-of-scope header */
