// warpsafe built-in <helper_functions.h> (from the CUDA samples)
#ifndef __WARPSAFE_HELPER_FUNCTIONS_H
#define __WARPSAFE_HELPER_FUNCTIONS_H
#include <stddef.h>
#endif
