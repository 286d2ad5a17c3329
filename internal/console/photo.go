package console

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/app"
)

// The console shows pictures too: a terminal cannot, so each is written to
// a file and its path printed, for the newcomer to open.
var _ app.Photos = (*Messenger)(nil)

// SendPhoto writes the picture to a temporary file and prints its path,
// then the caption and the buttons, as Send prints a message.
func (m *Messenger) SendPhoto(_ context.Context, p app.Photo) (*models.Message, error) {
	path, err := m.writePhoto(p.FileName(), p.PNG)
	if err != nil {
		return nil, err
	}
	p.Caption, p.ParseMode = app.FitCaption(p.Caption, p.ParseMode)
	prefix := m.sendPrefix(p.ChatID)
	m.print(prefix, m.say("photo")+" "+path)
	if p.Caption != "" {
		m.print(prefix, plain(p.Caption, p.ParseMode))
	}
	id := m.posted(p.ChatID, p.Keyboard)
	return &models.Message{ID: id, Chat: models.Chat{ID: p.ChatID}, Caption: p.Caption}, nil
}

// EditPhoto writes the new picture to a new file and prints its path, the
// caption and the buttons.
func (m *Messenger) EditPhoto(_ context.Context, e app.PhotoEdit) error {
	path, err := m.writePhoto(e.FileName(), e.PNG)
	if err != nil {
		return err
	}
	e.Caption, e.ParseMode = app.FitCaption(e.Caption, e.ParseMode)
	prefix := m.say("edits", map[string]any{"Message": e.MessageID})
	m.print(prefix, m.say("photo")+" "+path)
	if e.Caption != "" {
		m.print(prefix, plain(e.Caption, e.ParseMode))
	}
	if e.ChatID == ChatID {
		m.keyboard(e.MessageID, e.Keyboard)
	}
	return nil
}

// writePhoto saves data under the session's directory (PhotoDir, or the
// system's temporary one) with a name made unique there.
func (m *Messenger) writePhoto(name string, data []byte) (string, error) {
	ext := filepath.Ext(name)
	pattern := "miti99bot-" + strings.TrimSuffix(filepath.Base(name), ext) + "-*" + ext
	f, err := os.CreateTemp(m.PhotoDir, pattern)
	if err != nil {
		return "", fmt.Errorf("console: photo: %w", err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return "", fmt.Errorf("console: photo: %w", err)
	}
	if err := f.Close(); err != nil {
		return "", fmt.Errorf("console: photo: %w", err)
	}
	m.mu.Lock()
	m.photos = append(m.photos, f.Name())
	m.mu.Unlock()
	return f.Name(), nil
}

// Close removes the pictures the session wrote: they were for display,
// and a newcomer's temporary directory should not fill with charts.
func (m *Messenger) Close() error {
	m.mu.Lock()
	photos := m.photos
	m.photos = nil
	m.mu.Unlock()
	var errs []error
	for _, p := range photos {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, fmt.Errorf("console: removing %s: %w", p, err))
		}
	}
	return errors.Join(errs...)
}
