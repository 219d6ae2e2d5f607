/*
 * crypto/gcm/dispatch.h: TEMPORARY forwarder for the one file that still
 * includes the dispatcher's old path, test/fused_test.cc, which another
 * change is splitting. The dispatcher is crypto/dispatch/dispatch.h; delete
 * this file when the split tests include that.
 */
#include "../dispatch/dispatch.h"
