/* Another header of the same driver, not included by xs_main.c: it looks
 * at the task's list, which struct work_struct does not have. */
#define XS_TASK_LINKED(p)	(!list_empty(&(p)->tq.list))
