/* A driver's own name for an attribute, in its header */
#define DRV_DMA_ALIGN	__attribute__((__aligned__(32)))
