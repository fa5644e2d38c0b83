/* A container the header defines with a variable: the header gets the
 * back-pointer field the .c asks for. */
#include <linux/workqueue.h>
struct irqs { int enabled; };
static struct hv {
	struct work_struct w;
	struct irqs *irq;
} hv0;
