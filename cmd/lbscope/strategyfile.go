package main

import (
	"fmt"
	"strings"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/selector"
	"github.com/lbscope/lbscope/wasm/script"
)

// loadStrategyFile reads a strategy written in Starlark and adds it to the strategy table
// under the name its file gives (weighted.star is WEIGHTED), which it returns: from then on
// it is a strategy name like AVG for every door of the command. The same file given twice is
// loaded once.
func loadStrategyFile(path string) (string, error) {
	name := script.NameOf(path)
	if loaded[name] == path {
		return name, nil
	}
	src, err := readLimited(path, script.MaxSource, "a strategy file")
	if err != nil {
		return "", err
	}
	p, err := script.Load(name, path, src)
	if err != nil {
		return "", err
	}
	if _, _, builtin := allocate.Lookup(name); builtin && loaded[name] == "" {
		return "", fmt.Errorf("%s: its name, %s, is a built-in strategy's; rename the file (e.g. %s_PORT)", path, name, strings.ToLower(name))
	}
	if err := script.Register(p); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	loaded[name] = path
	return name, nil
}

// loadSelectorFile reads a queue selector written in Starlark: the file must define
// select(queues, message, arg). Its name is the one its file gives (composite.star is
// COMPOSITE).
func loadSelectorFile(path string) (selector.Choice, error) {
	src, err := readLimited(path, script.MaxSource, "a selector file")
	if err != nil {
		return selector.Choice{}, err
	}
	c := selector.Choice{Name: script.NameOf(path), Source: string(src)}
	if _, err := script.CompileSelector(c.Name, path, src, c.StepBudget()); err != nil {
		return selector.Choice{}, err
	}
	return c, nil
}

// loaded are the strategy files this command has registered, by strategy name.
var loaded = map[string]string{}

// forgetStrategyFiles takes the command's strategy files out of the strategy table again, so
// that commands run one after another in one process (the tests, the README's) start alike.
func forgetStrategyFiles() {
	for name := range loaded {
		allocate.Unregister(name)
		delete(loaded, name)
	}
}

// variantFiles turns each file:PATH of a --variants list into the strategy name its file
// registers.
func variantFiles(list string) (string, error) {
	items := strings.Split(list, ",")
	for i, item := range items {
		path, ok := strings.CutPrefix(strings.TrimSpace(item), "file:")
		if !ok {
			continue
		}
		name, err := loadStrategyFile(path)
		if err != nil {
			return "", fmt.Errorf("--variants %s: %w", item, err)
		}
		items[i] = name
	}
	return strings.Join(items, ","), nil
}
