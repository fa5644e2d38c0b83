/* A vendor header outside the driver (found with -I). */
struct vbuf {
	void *mem;
	struct work_struct refill;
};
