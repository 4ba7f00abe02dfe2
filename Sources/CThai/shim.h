#include <stddef.h>
#include <thai/thbrk.h>
#include <thai/thwbrk.h>
