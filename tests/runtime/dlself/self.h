int self_open(void);
