/* placeholder: replaced by the command-line front end */
#include "config.h"
#include <stdio.h>
int main(void) { puts("httop " PACKAGE_VERSION); return 0; }
