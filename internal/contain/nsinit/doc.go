// Package nsinit is the init of a contained agent's namespaces (see
// package contain): askbridge re-executed with Arg as its first argument.
// It sets the container up, starts the agent in a session of its own, and
// reaps every process in the namespace until the agent exits.
//
// It imports only a few of the standard library's packages, none that
// sorts late, so that Go initializes it, and so runs the init (its own
// init function), before the many packages of the program that imports
// it: each start of an agent pays for the init's start.
package nsinit
