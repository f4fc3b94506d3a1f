package main

import "github.com/askbridge/askbridge/internal/contain"

// askbridge re-executed as the init of its agent's namespaces (--contain):
// that mode runs before anything else, main included.
func init() { contain.RunIfInit() }
