// warpsafe built-in <stdio.h> (printf is recognised by name by the lowering)
#ifndef __WARPSAFE_STDIO_H
#define __WARPSAFE_STDIO_H
#include <stddef.h>
typedef struct _IO_FILE FILE;
#define EOF (-1)
#define BUFSIZ 8192
#endif
