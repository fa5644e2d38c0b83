/*
 * A 2.4 driver with a file-scope macro call spatch cannot parse, far from
 * its task (acpi/os.c's MODULE_NAME ("os"), defined in a header).
 */
#include <linux/tqueue.h>

static void noise_task(void *data)
{
}

static struct tq_struct noise_tq = { routine: noise_task };

void noise_kick(void)
{
	schedule_task(&noise_tq);
}

static int noise_level;
	MODULE_NAME	("noise")
