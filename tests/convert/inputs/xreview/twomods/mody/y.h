#include <linux/timer.h>
void reset_task(unsigned long data);
