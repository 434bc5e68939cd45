// warpsafe built-in <string.h>
#ifndef __WARPSAFE_STRING_H
#define __WARPSAFE_STRING_H
#include <stddef.h>
#endif
