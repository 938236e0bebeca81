package dev.sieve; final class Placeholder { private Placeholder() {} }
