/*
 * Rule 2/3: a handler typed on the struct tag, the item in a variable of
 * its typedef name (2.6.18's act2000: `typedef struct act2000_card {...}
 * act2000_card;`, handlers taking `struct act2000_card *`).
 */
#include <linux/workqueue.h>

typedef struct card {
	int state;
	struct work_struct snd_tq;
} card_t;

static void card_transmit(struct card *card)
{
	card->state++;
}

static void card_setup(card_t *card)
{
	INIT_WORK(&card->snd_tq, (void *)(void *)card_transmit, card);
}
