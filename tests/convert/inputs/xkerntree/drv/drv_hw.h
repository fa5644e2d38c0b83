#define KDEV_IRQ 5
