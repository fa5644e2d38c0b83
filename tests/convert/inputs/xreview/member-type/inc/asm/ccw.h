/* Outside the run, as 2.6.18's <asm/ccwdev.h>: the device structure
 * points to the private one that holds the work item. */
struct ccw_priv;

struct ccw_dev {
	int id;
	struct ccw_priv *private;	/* driver private information */
};
