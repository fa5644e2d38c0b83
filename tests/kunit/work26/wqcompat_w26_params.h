/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wqcompat.ko's module parameters in sysfs, read and written as a test
 * module can (for the edge and race suites: work26_reclaim,
 * work26_bound, test_delay_us).
 */
#ifndef _WQCOMPAT_W26_PARAMS_H
#define _WQCOMPAT_W26_PARAMS_H

#include <linux/err.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/string.h>

#define W26_PARAMS "/sys/module/wqcompat/parameters/"

/* The value of a numeric parameter, or -1. */
static inline long w26_param_read(const char *name)
{
	char path[96], buf[32] = {};
	struct file *f;
	loff_t pos = 0;
	long val = -1;

	snprintf(path, sizeof(path), W26_PARAMS "%s", name);
	f = filp_open(path, O_RDONLY, 0);
	if (IS_ERR(f))
		return -1;
	if (kernel_read(f, buf, sizeof(buf) - 1, &pos) > 0 &&
	    kstrtol(strim(buf), 10, &val))
		val = -1;
	filp_close(f, NULL);
	return val;
}

/* Write @val to a parameter: 0 or a negative errno. */
static inline int w26_param_write(const char *name, const char *val)
{
	char path[96];
	struct file *f;
	loff_t pos = 0;
	ssize_t n;

	snprintf(path, sizeof(path), W26_PARAMS "%s", name);
	f = filp_open(path, O_WRONLY, 0);
	if (IS_ERR(f))
		return PTR_ERR(f);
	n = kernel_write(f, val, strlen(val), &pos);
	filp_close(f, NULL);
	return n < 0 ? n : 0;
}

#endif /* _WQCOMPAT_W26_PARAMS_H */
