package relay

import "encoding/json"

var jsonUnmarshal = json.Unmarshal
