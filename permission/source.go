package permission

// ProgressFrom is Progress for a front end other than the desk's page:
// the set, once answered, names source as where it was answered.
func (b *Board) ProgressFrom(id string, step int, answers []Answer, source Source) (done bool, err error) {
	return b.ProgressBy(id, step, answers, By{Source: source})
}
