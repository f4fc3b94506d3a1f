// Package route is the door on the people's side of the board: the ways
// besides the editor by which a person sees and answers the sets an agent
// asks (the desk, the hub's reporter, the notifiers; at the hub its Web
// Push, its page and its terminal inbox) are plug-ins behind one small
// interface, started from one table. What a route needs of the
// composition, or leaves for a route after it, is in its Env; nothing
// asks a started route for its type.
//
// A route starts on the board with what the flags said of it, and says,
// at any moment, whether a person can answer through it now (Where), what
// would let it (Missing), and whether it shows sets to a person at all
// (Showing). The bridge asks the started table, never the routes one by
// one: "can anyone but the editor answer?" is Set.Elsewhere.
//
// Who may answer what is not a route's to decide: the board's gate
// (permission.Gate) decides it for every route alike.
package route
