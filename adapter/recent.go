package adapter

// recentIDs remembers the last few hundred request ids, oldest forgotten
// first.
type recentIDs struct {
	ring [256]string
	next int
	set  map[string]int
}

func (r *recentIDs) add(id string) {
	if r.set == nil {
		r.set = map[string]int{}
	}
	if old := r.ring[r.next]; old != "" {
		if r.set[old]--; r.set[old] <= 0 {
			delete(r.set, old)
		}
	}
	r.ring[r.next] = id
	r.set[id]++
	r.next = (r.next + 1) % len(r.ring)
}

func (r *recentIDs) has(id string) bool { return r.set[id] > 0 }
