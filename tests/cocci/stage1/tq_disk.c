/* tq_disk: block-layer unplugging.  A run is only reported; a driver task on
 * it stays on the 2.4 API (the shim runs tq_disk), the others convert. */
#include <linux/tqueue.h>
#include <linux/blkdev.h>

struct card {
	struct tq_struct plug_tq;
	struct tq_struct poll_tq;
};

void card_plug(struct card *card)
{
	queue_task(&card->plug_tq, &tq_disk);
	schedule_task(&card->poll_tq);
}

void card_sync(void)
{
	run_task_queue(&tq_disk);
}
