// warpsafe built-in <stddef.h>
#ifndef __WARPSAFE_STDDEF_H
#define __WARPSAFE_STDDEF_H
typedef unsigned long size_t;
typedef long ptrdiff_t;
typedef long max_align_t;
#ifndef NULL
#define NULL 0
#endif
#define offsetof(type, member) __builtin_offsetof(type, member)
#endif
