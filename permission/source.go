package permission

// More sources of a result, for the routes that answer a set through the
// desk's API but are not the desk's page: a history says the route the
// person used.
const (
	SourceNotification = "notification" // a notification's answer button (a tap)
	SourceInbox        = "inbox"        // askbridge inbox, the hub's terminal inbox
)

// ProgressFrom is Progress for a front end other than the desk's page:
// the set, once answered, names source as where it was answered.
func (b *Board) ProgressFrom(id string, step int, answers []Answer, source string) (done bool, err error) {
	return b.ProgressBy(id, step, answers, By{Source: source})
}
