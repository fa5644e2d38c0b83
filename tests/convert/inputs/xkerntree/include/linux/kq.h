/* A header of the tree the command runs in, outside the run: never written. */
static inline void kq_kick(struct tq_struct *t)
{
	queue_task(t, &tq_immediate);
}
