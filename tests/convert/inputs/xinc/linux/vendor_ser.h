/* A vendor serial header outside the driver (found with -I): the port's
 * task is declared here. */
struct vser_port {
	int flags;
	struct tq_struct tqueue;
};
