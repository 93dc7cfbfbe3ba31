#include <taglib/tag_c.h>
