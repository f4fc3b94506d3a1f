// Package qr prints a QR code in a terminal, for pairing a phone with the
// hub's page: two rows of modules per line with half-block characters, so
// that a code for a 100-character address fits in about 25 lines.
//
// The encoding is github.com/skip2/go-qrcode's; this package only draws.
package qr
