// Package toynumber is the answer kind of docs/development.md's recipe, in
// a folder of its own: a question answered with a number, typed. Its one
// file registers the kind with its properties and its check
// (permission.RegisterKind); nothing else in askbridge names it: the
// editor's permission request, the desk and hub page, the terminal
// prompter and inbox and the notifiers show it by what it says of itself
// (typed text, an input of type "number", "a number"), and refuse a typed
// answer its check refuses.
package toynumber
