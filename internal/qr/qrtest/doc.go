// Package qrtest reads back the QR codes package qr draws, for tests: the
// modules from the terminal's characters, the text with a real decoder.
package qrtest
