package permission

// Note sets what front ends show on a pending set beside its questions:
// a change that does not end it, such as its asker having stopped waiting.
func (b *Board) Note(id, note string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	t, err := b.pending(id)
	if err != nil {
		return err
	}
	if t.p.Note != note {
		t.p.Note = note
		b.publish(EventNoted, t.p)
	}
	return nil
}
