# Thin wrappers of the npm scripts named in README.md.
.PHONY: install up test bench lint build

install:
	npm ci

build: install
	npm run build

up: install
	npm run up

test: install
	npm test

bench: install
	npm run bench

lint: install
	npm run lint
