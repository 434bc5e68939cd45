// warpsafe built-in <time.h>
#ifndef __WARPSAFE_TIME_H
#define __WARPSAFE_TIME_H
#include <stddef.h>
typedef long time_t;
typedef long clock_t;
#define CLOCKS_PER_SEC 1000000L
#endif
