package main

// askbridge re-executed as the init of its agent's namespaces (--contain,
// "askbridge __contain-init ..."): that mode is internal/contain's own
// init function, which runs before the heavier packages askbridge imports
// are initialized, and before main. It is imported for --contain's flag
// (contain.go) and for this.
import _ "github.com/askbridge/askbridge/internal/contain"
