/* The header of declared-outside.c: a vendor driver's buffer, whose work
 * item that file uses as delayed work. */
struct vbuf {
	void *mem;
	struct work_struct refill;
};
