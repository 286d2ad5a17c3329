package telegram

import (
	"encoding"
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/go-telegram/bot/models"
)

// lenient decodes what encoding/json refused as a whole, part by part: an
// object field by field, a list item by item, so that only the parts that
// fail on their own are left out. A type with its own decoder (the
// library's discriminated unions: MessageOrigin, ChatMember, ReactionType)
// cannot be split and goes whole; MaybeInaccessibleMessage, which only
// wraps a Message, is split like one.
type lenient struct {
	ignored []string
	more    int // left out beyond maxIgnored
}

// maxIgnored bounds the list a log line carries: a long message whose
// every entity fails names the first few.
const maxIgnored = 16

func (d *lenient) ignore(path string) {
	if len(d.ignored) == maxIgnored {
		d.more++
		return
	}
	d.ignored = append(d.ignored, path)
}

// result is the list for the log, with a count of what it leaves off.
func (d *lenient) result() []string {
	if d.more > 0 {
		return append(d.ignored, "and "+strconv.Itoa(d.more)+" more")
	}
	return d.ignored
}

// maxDepth bounds the work: each level decodes its subtree once more.
// Telegram nests an update a few levels deep
// (callback_query.message.reply_to_message.forward_origin); deeper parts
// that fail are left out whole.
const maxDepth = 8

// needed are the fields without which an object means nothing to the bot:
// a message without its chat would be answered nowhere. When one of them
// is left out, so is the object.
var needed = map[reflect.Type][]string{
	reflect.TypeFor[models.Message]():           {"chat"},
	reflect.TypeFor[models.CallbackQuery]():     {"id", "from"},
	reflect.TypeFor[models.ChatMemberUpdated](): {"chat", "new_chat_member"},
}

var (
	maybeMessageType = reflect.TypeFor[models.MaybeInaccessibleMessage]()
	unmarshalerType  = reflect.TypeFor[json.Unmarshaler]()
	textType         = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// value decodes raw into v, or as much of it as decodes; it reports
// whether anything did. What is left out is recorded under path.
func (d *lenient) value(raw json.RawMessage, v reflect.Value, path string, depth int) bool {
	if json.Unmarshal(raw, v.Addr().Interface()) == nil {
		return true
	}
	v.SetZero() // a failed decode leaves parts behind
	return d.parts(raw, v, path, depth)
}

// parts decodes raw, which failed as a whole, into v part by part.
func (d *lenient) parts(raw json.RawMessage, v reflect.Value, path string, depth int) bool {
	t := v.Type()
	switch {
	case depth >= maxDepth:
	case t == maybeMessageType:
		return d.maybeMessage(raw, v, path, depth)
	case t.Kind() == reflect.Pointer:
		elem := reflect.New(t.Elem())
		if !d.parts(raw, elem.Elem(), path, depth) {
			return false // recorded below
		}
		v.Set(elem)
		return true
	case reflect.PointerTo(t).Implements(unmarshalerType), reflect.PointerTo(t).Implements(textType):
	case t.Kind() == reflect.Struct:
		return d.object(raw, v, path, depth)
	case t.Kind() == reflect.Slice:
		return d.list(raw, v, path, depth)
	}
	d.ignore(path)
	return false
}

func (d *lenient) object(raw json.RawMessage, v reflect.Value, path string, depth int) bool {
	var fields map[string]json.RawMessage
	if json.Unmarshal(raw, &fields) != nil {
		d.ignore(path)
		return false
	}
	names := fieldNames(v.Type())
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	slices.Sort(keys) // the same body logs the same list
	var lost []string
	for _, k := range keys {
		i, name, ok := fieldFor(names, k)
		if !ok {
			continue // unknown to the library: encoding/json skips it too
		}
		if !d.value(fields[k], v.Field(i), join(path, name), depth+1) {
			lost = append(lost, name)
		}
	}
	for _, n := range needed[v.Type()] {
		if slices.Contains(lost, n) {
			v.SetZero()
			d.ignore(path)
			return false
		}
	}
	return true
}

func (d *lenient) list(raw json.RawMessage, v reflect.Value, path string, depth int) bool {
	var items []json.RawMessage
	if json.Unmarshal(raw, &items) != nil {
		d.ignore(path)
		return false
	}
	out := reflect.MakeSlice(v.Type(), 0, len(items))
	elem := reflect.New(v.Type().Elem()).Elem()
	for i, item := range items {
		elem.SetZero()
		if d.value(item, elem, path+"["+strconv.Itoa(i)+"]", depth+1) {
			out = reflect.Append(out, elem)
		}
	}
	v.Set(out)
	return true
}

// maybeMessage does what the library's decoder does (date 0 marks an
// inaccessible message), with the Message decoded part by part.
func (d *lenient) maybeMessage(raw json.RawMessage, v reflect.Value, path string, depth int) bool {
	var probe struct {
		Date int `json:"date"`
	}
	if json.Unmarshal(raw, &probe) != nil {
		d.ignore(path)
		return false
	}
	mim := v.Addr().Interface().(*models.MaybeInaccessibleMessage)
	if probe.Date == 0 {
		var im models.InaccessibleMessage
		if !d.value(raw, reflect.ValueOf(&im).Elem(), path, depth) {
			return false
		}
		mim.Type, mim.InaccessibleMessage = models.MaybeInaccessibleMessageTypeInaccessibleMessage, &im
		return true
	}
	var m models.Message
	if !d.parts(raw, reflect.ValueOf(&m).Elem(), path, depth) {
		return false
	}
	mim.Type, mim.Message = models.MaybeInaccessibleMessageTypeMessage, &m
	return true
}

// fieldNames maps a struct's JSON names to its field indexes.
func fieldNames(t reflect.Type) map[string]int {
	names := make(map[string]int, t.NumField())
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() || f.Anonymous {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch name {
		case "-":
			continue
		case "":
			name = f.Name
		}
		names[name] = i
	}
	return names
}

// fieldFor finds the field of key as encoding/json does: the exact name,
// else one equal but for case. It returns the field's own name, so a
// recorded path holds only names the library defines.
func fieldFor(names map[string]int, key string) (int, string, bool) {
	if i, ok := names[key]; ok {
		return i, key, true
	}
	for name, i := range names {
		if strings.EqualFold(name, key) {
			return i, name, true
		}
	}
	return 0, "", false
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}
