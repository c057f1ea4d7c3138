int api_detail(int x);
