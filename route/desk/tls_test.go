package desk

import (
	"crypto/tls"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/testkit/testcert"
)

// A desk with TLS (the hub's --tls-cert) says https, answers over TLS
// only, and takes its own https origin, whatever host the phone used,
// but still no other.
func TestTLSDesk(t *testing.T) {
	certFile, keyFile, pool := testcert.Write(t)
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	require.NoError(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	d := New(ln, permission.NewBoard(), Options{AllowRemote: true,
		TLS: &tls.Config{Certificates: []tls.Certificate{cert}}, Addr: "192.168.1.20:" + port})
	defer d.Close()
	assert.Equal(t, "https://192.168.1.20:"+port+"/", d.URL(), "the address a phone opens")

	base := "https://127.0.0.1:" + port
	c := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	get := func(host, origin string) int {
		req, _ := http.NewRequest("GET", base+"/question", nil)
		sign(t, d, req)
		req.Host = host
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		resp, err := c.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		return resp.StatusCode
	}
	lan := "192.168.1.20:" + port
	assert.Equal(t, http.StatusOK, get("127.0.0.1:"+port, ""))
	assert.Equal(t, http.StatusOK, get("127.0.0.1:"+port, "https://127.0.0.1:"+port), "its own https origin")
	assert.Equal(t, http.StatusOK, get(lan, "https://"+lan), "reached through a LAN address")
	assert.Equal(t, http.StatusForbidden, get(lan, "http://"+lan), "not the scheme it serves")
	assert.Equal(t, http.StatusForbidden, get(lan, "https://evil.example"), "a foreign origin")

	plain := &http.Client{Timeout: 5 * time.Second}
	resp, err := plain.Get("http://127.0.0.1:" + port + "/question")
	if err == nil {
		resp.Body.Close()
		assert.Equal(t, http.StatusBadRequest, resp.StatusCode, "plain HTTP to the TLS port is refused")
	}
	resp, err = c.Get(strings.Replace(d.URL(), lan, "127.0.0.1:"+port, 1))
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode, "the page itself over TLS")
}
