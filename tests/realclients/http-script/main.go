// Command http-script sends the server judge's request scripts to one API server — a real
// kube-apiserver or serve-api — as a client sees it: raw HTTP, no client library between, so
// every status, body, stream event and stream end is what the server wrote.
//
// It reads one JSON document on standard input:
//
//	{"base": "https://127.0.0.1:6443", "tokens": {"admin": "…", …},
//	 "faults": "https://… (serve-api) or empty", "etcd": "http://127.0.0.1:2379 or empty",
//	 "scripts": [{"name": …, "namespace": …, "steps": [Step, …]}, …]}
//
// and writes one JSON line per script: {"name": …, "steps": [Answer, …]}. Scripts run -at-once
// at a time: 1 (the default) one after another, 0 all together (the few that wait on the clock).
//
// A step's path, query and body may name what an earlier step saved: {ns}, {rv:NAME} (the
// resourceVersion its answer carried: an object's or a list's), {rv+1:NAME}, {future:NAME} (a
// million on: a revision no run reaches),
// {continue:NAME}, {name:NAME} (the object's name). A compaction is done through etcd's own
// API on a real server and through serve-api's fault endpoint on the model.
package main

import (
	"bufio"
	"crypto/tls"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

type Step struct {
	As     string          `json:"as,omitempty"`
	Method string          `json:"method,omitempty"`
	Path   string          `json:"path,omitempty"`
	Query  string          `json:"query,omitempty"`
	Body   json.RawMessage `json:"body,omitempty"`
	// A body sent as written (one JSON cannot hold, such as a key given twice).
	Raw         string `json:"raw,omitempty"`
	ContentType string `json:"content_type,omitempty"`
	// The Accept header (application/json unless told).
	Accept string `json:"accept,omitempty"`
	Save   string `json:"save,omitempty"`
	// A watch: the stream is read for Seconds while During runs once the stream is open.
	Seconds float64 `json:"seconds,omitempty"`
	During  []Step  `json:"during,omitempty"`
	// "compact": compact the store at its current revision.
	Fault   string `json:"fault,omitempty"`
	SleepMs int    `json:"sleep_ms,omitempty"`
}

type Script struct {
	Name      string `json:"name"`
	Namespace string `json:"namespace"`
	Steps     []Step `json:"steps"`
}

type Input struct {
	Base    string            `json:"base"`
	Tokens  map[string]string `json:"tokens"`
	Faults  string            `json:"faults"`
	Etcd    string            `json:"etcd"`
	Scripts []Script          `json:"scripts"`
}

type Event struct {
	Ms     int64           `json:"ms"`
	Type   string          `json:"type"`
	Object json.RawMessage `json:"object"`
}

type Answer struct {
	Status int             `json:"status"`
	Body   json.RawMessage `json:"body,omitempty"`
	Text   string          `json:"text,omitempty"`
	Events []Event         `json:"events,omitempty"`
	// How a stream ended: "server" (closed by it, at EndedMs) or "client" (read for Seconds).
	Ended   string   `json:"ended,omitempty"`
	EndedMs int64    `json:"ended_ms,omitempty"`
	During  []Answer `json:"during,omitempty"`
	Error   string   `json:"error,omitempty"`
	// The Retry-After header, where the answer has one.
	RetryAfter string `json:"retry_after,omitempty"`
	// Every Warning header, in order.
	Warnings []string `json:"warnings,omitempty"`
}

type Result struct {
	Name  string   `json:"name"`
	Steps []Answer `json:"steps"`
}

var client = &http.Client{Transport: &http.Transport{
	// Loopback only, to a server whose certificate was made at its start.
	TLSClientConfig:     &tls.Config{InsecureSkipVerify: true},
	MaxIdleConnsPerHost: 64,
}}

type run struct {
	in    *Input
	ns    string
	mu    sync.Mutex
	saved map[string]json.RawMessage
}

var placeholder = regexp.MustCompile(`\{(ns|rv|rv\+1|future|continue|name)(?::([A-Za-z0-9_-]+))?\}`)

func (r *run) fill(text string) string {
	return placeholder.ReplaceAllStringFunc(text, func(m string) string {
		parts := placeholder.FindStringSubmatch(m)
		if parts[1] == "ns" {
			return r.ns
		}
		r.mu.Lock()
		body := r.saved[parts[2]]
		r.mu.Unlock()
		var doc struct {
			Metadata struct {
				ResourceVersion string `json:"resourceVersion"`
				Continue        string `json:"continue"`
				Name            string `json:"name"`
			} `json:"metadata"`
		}
		_ = json.Unmarshal(body, &doc)
		rv, _ := strconv.ParseInt(doc.Metadata.ResourceVersion, 10, 64)
		switch parts[1] {
		case "rv":
			return doc.Metadata.ResourceVersion
		case "rv+1":
			return strconv.FormatInt(rv+1, 10)
		case "future":
			return strconv.FormatInt(rv+1_000_000, 10)
		case "continue":
			return doc.Metadata.Continue
		default:
			return doc.Metadata.Name
		}
	})
}

func (r *run) request(s Step) (*http.Response, error) {
	target := r.in.Base + r.fill(s.Path)
	if s.Query != "" {
		target += "?" + r.fill(s.Query)
	}
	var body io.Reader
	if len(s.Body) > 0 {
		body = strings.NewReader(r.fill(string(s.Body)))
	} else if s.Raw != "" {
		body = strings.NewReader(r.fill(s.Raw))
	}
	req, err := http.NewRequest(s.Method, target, body)
	if err != nil {
		return nil, err
	}
	as := s.As
	if as == "" {
		as = "admin"
	}
	if token, ok := r.in.Tokens[as]; ok {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	accept := s.Accept
	if accept == "" {
		accept = "application/json"
	}
	req.Header.Set("Accept", accept)
	if body != nil {
		contentType := s.ContentType
		if contentType == "" {
			contentType = "application/json"
		}
		req.Header.Set("Content-Type", contentType)
	}
	return client.Do(req)
}

func (r *run) step(s Step) Answer {
	if s.SleepMs > 0 {
		time.Sleep(time.Duration(s.SleepMs) * time.Millisecond)
		return Answer{}
	}
	if s.Fault != "" {
		if err := r.fault(s.Fault); err != nil {
			return Answer{Error: err.Error()}
		}
		return Answer{}
	}
	if s.Seconds > 0 {
		return r.watch(s)
	}
	resp, err := r.request(s)
	if err != nil {
		return Answer{Error: err.Error()}
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	answer := Answer{Status: resp.StatusCode, RetryAfter: resp.Header.Get("Retry-After"), Warnings: resp.Header.Values("Warning")}
	if json.Valid(raw) {
		answer.Body = raw
		if s.Save != "" {
			r.mu.Lock()
			r.saved[s.Save] = raw
			r.mu.Unlock()
		}
	} else {
		answer.Text = string(raw)
	}
	return answer
}

// afterDuring bounds how long a watch is still read, past its window, for the events of its
// During writes: a busy machine's watch cache may deliver them seconds after the writes
// answered. Both sides get the same rule; an idle one never needs it.
const afterDuring = 8 * time.Second

// watch reads a stream for s.Seconds, running s.During once the answer's headers arrived, and
// past the window until the events of the During writes arrived (at most afterDuring more).
func (r *run) watch(s Step) Answer {
	start := time.Now()
	resp, err := r.request(s)
	if err != nil {
		return Answer{Error: err.Error()}
	}
	answer := Answer{Status: resp.StatusCode}
	if resp.StatusCode != http.StatusOK {
		raw, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		answer.Body = raw
		return answer
	}
	events := make(chan Event, 1024)
	go func() {
		defer close(events)
		decoder := json.NewDecoder(bufio.NewReader(resp.Body))
		for {
			var e Event
			if err := decoder.Decode(&e); err != nil {
				return
			}
			e.Ms = time.Since(start).Milliseconds()
			events <- e
		}
	}()
	done := make(chan []Answer)
	go func() {
		var during []Answer
		for _, inner := range s.During {
			during = append(during, r.step(inner))
		}
		done <- during
	}()
	windowLength := time.Duration(s.Seconds * float64(time.Second))
	window := time.NewTimer(windowLength)
	defer window.Stop()
	var during []Answer
	duringDone, windowOver := false, false
	var awaited []change
	var limit <-chan time.Time
	for answer.Ended == "" {
		select {
		case e, open := <-events:
			if !open {
				answer.Ended, answer.EndedMs = "server", time.Since(start).Milliseconds()
				break
			}
			answer.Events = append(answer.Events, e)
			awaited = seen(awaited, e)
		case during = <-done:
			duringDone = true
			awaited = changesMade(s.During, during)
			for _, e := range answer.Events {
				awaited = seen(awaited, e)
			}
			limit = time.After(windowLength + afterDuring - time.Since(start))
		case <-window.C:
			windowOver = true
		case <-limit:
			awaited = nil
		}
		if windowOver && duringDone && len(awaited) == 0 {
			answer.Ended = "client"
		}
	}
	resp.Body.Close()
	if !duringDone {
		during = <-done
	}
	answer.During = during
	return answer
}

// change is what a write made that a watch of its namespace is to show: an event for the
// object named, DELETED or at resourceVersion rv or later.
type change struct {
	name    string
	deleted bool
	rv      uint64
}

// changesMade lists the changes the successful writes among steps made.
func changesMade(steps []Step, answers []Answer) []change {
	var made []change
	for i, a := range answers {
		step := steps[i]
		if step.Method == "" || step.Method == "GET" || a.Status < 200 || a.Status >= 300 {
			continue
		}
		if step.Method == "DELETE" {
			made = append(made, change{name: step.Path[strings.LastIndex(step.Path, "/")+1:], deleted: true})
			continue
		}
		if name, rv := nameAndVersion(a.Body); name != "" {
			made = append(made, change{name: name, rv: rv})
		}
	}
	return made
}

// seen drops the changes event shows.
func seen(awaited []change, e Event) []change {
	name, rv := nameAndVersion(e.Object)
	kept := awaited[:0]
	for _, c := range awaited {
		shown := c.name == name && (c.deleted && e.Type == "DELETED" || !c.deleted && rv >= c.rv)
		if !shown {
			kept = append(kept, c)
		}
	}
	return kept
}

// nameAndVersion reads metadata.name and metadata.resourceVersion of an object.
func nameAndVersion(object json.RawMessage) (string, uint64) {
	var o struct {
		Metadata struct {
			Name            string `json:"name"`
			ResourceVersion string `json:"resourceVersion"`
		} `json:"metadata"`
	}
	if json.Unmarshal(object, &o) != nil {
		return "", 0
	}
	rv, _ := strconv.ParseUint(o.Metadata.ResourceVersion, 10, 64)
	return o.Metadata.Name, rv
}

func (r *run) fault(name string) error {
	if name != "compact" {
		return fmt.Errorf("unknown fault %q", name)
	}
	if r.in.Etcd != "" {
		// etcd's JSON gateway: the current revision, then a compaction at it.
		var status struct {
			Header struct {
				Revision string `json:"revision"`
			} `json:"header"`
		}
		if err := post(r.in.Etcd+"/v3/kv/range", `{"key":"AA=="}`, &status); err != nil {
			return err
		}
		return post(r.in.Etcd+"/v3/kv/compaction", fmt.Sprintf(`{"revision":%q,"physical":true}`, status.Header.Revision), nil)
	}
	req, _ := http.NewRequest("POST", r.in.Faults+"/playground/faults", strings.NewReader(`{"fault":"compact-store"}`))
	req.Header.Set("Authorization", "Bearer "+r.in.Tokens["admin"])
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("fault endpoint answered %d", resp.StatusCode)
	}
	return nil
}

func post(url, body string, out any) error {
	resp, err := client.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s answered %d: %s", url, resp.StatusCode, raw)
	}
	if out != nil {
		return json.Unmarshal(raw, out)
	}
	return nil
}

func (in *Input) runScript(s Script) Result {
	r := &run{in: in, ns: s.Namespace, saved: map[string]json.RawMessage{}}
	result := Result{Name: s.Name}
	for _, step := range s.Steps {
		result.Steps = append(result.Steps, r.step(step))
	}
	return result
}

func main() {
	atOnce := flag.Int("at-once", 1, "how many scripts run at a time (0: all)")
	flag.Parse()
	var in Input
	if err := json.NewDecoder(os.Stdin).Decode(&in); err != nil {
		fmt.Fprintln(os.Stderr, "http-script: reading the scripts:", err)
		os.Exit(2)
	}
	slots := *atOnce
	if slots <= 0 || slots > len(in.Scripts) {
		slots = max(len(in.Scripts), 1)
	}
	results := make([]Result, len(in.Scripts))
	free := make(chan struct{}, slots)
	var wg sync.WaitGroup
	for i, s := range in.Scripts {
		free <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-free; wg.Done() }()
			results[i] = in.runScript(s)
		}()
	}
	wg.Wait()
	out := bufio.NewWriter(os.Stdout)
	for _, result := range results {
		line, _ := json.Marshal(result)
		out.Write(line)
		out.WriteByte('\n')
	}
	out.Flush()
}
