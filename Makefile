# Thin wrappers of the npm scripts named in README.md.
.PHONY: install up test test-chaos bench lint build

install:
	npm ci

build: install
	npm run build

up: install
	npm run up

test: install
	npm test

# Only the replica kill test (issue 17); `make test` runs it too.
test-chaos: install
	npm run test:chaos

bench: install
	npm run bench

lint: install
	npm run lint
