// remote_insist: the loop of remote_clause.c, and the user insists: remote(a) makes even an affine stream a suspension point.
// cost-model: on
#define INSIST insist
#include "remote_clause.c"
