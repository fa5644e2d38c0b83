/* A 2.4 driver's header: the port and its task. */
#include <linux/tqueue.h>

struct xs_port {
	int line;
	struct tq_struct tq;
};
