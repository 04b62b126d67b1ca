/*
 * Internals of the irc module shared by its pure files.
 */
#ifndef HEED_IRC_INT_H
#define HEED_IRC_INT_H

#include "common/common-int.h"
#include "heed/irc.h"

#endif /* HEED_IRC_INT_H */
