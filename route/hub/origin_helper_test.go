package hub

import "github.com/askbridge/askbridge/permission"

// origin is where set id comes from as the hub's board says it (the set's
// Origin) and its folder: what the page shows.
func (h *Hub) origin(id string) (*permission.Origin, string) {
	p, ok := h.board.Get(id)
	if !ok || p.Origin == nil {
		return nil, ""
	}
	return p.Origin, p.Origin.Folder
}
