/* The driver's private header: not given to the run, only read. */
#include <linux/vendor_buf.h>

#define VBUF_RING	64
