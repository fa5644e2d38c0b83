/* An array of structures whose elements set their task field by position
 * (2.4 ppa.c style) or by name: no INIT_WORK() can stand for them. */
struct ppa_host {
	int base;
	struct tq_struct tq;
};
static void ppa_interrupt(void *data);

static struct ppa_host ppa_hosts[2] = {
	{ -1, { { NULL, NULL }, 0, ppa_interrupt, &ppa_hosts[0] } },
	{ -1, { { NULL, NULL }, 0, ppa_interrupt, &ppa_hosts[1] } },
};

static void ppa_poll(int i)
{
	queue_task(&ppa_hosts[i].tq, &tq_timer);
}

static struct ppa_host ppa_named[1] = {
	[0] = { base: -1, tq: { routine: ppa_interrupt, data: &ppa_named[0] } },
};
