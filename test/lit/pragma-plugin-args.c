// The plugin takes one argument, 'disable'; anything else is an error naming it.
// RUN: not %memcoro-cc -fsyntax-only -fplugin-arg-memcoro-disabled %s 2>&1 | %FileCheck %s
// CHECK: error: unknown argument 'disabled' for the memcoro plugin; the only one is 'disable'
int x;
