! fortran_app.f90 - an MPI program in Fortran (`use mpi`): every rank but
! rank 2 calls the wrapped library's mlib_step CALLS times (through
! bind(C)); rank 2 measures nothing. Prints the job's size and the sum of
! the ranks' results.
program fortran_app
  use mpi
  use iso_c_binding, only: c_long
  implicit none
  interface
    function mlib_step(x) bind(C, name='mlib_step')
      import :: c_long
      integer(c_long), value :: x
      integer(c_long) :: mlib_step
    end function mlib_step
  end interface
  integer :: ierr, rank, nranks, i
  integer(c_long) :: x, total
  character(len=16) :: arg
  integer :: calls

  call get_command_argument(1, arg)
  read (arg, *) calls
  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, nranks, ierr)
  x = 1
  if (rank /= 2) then
    do i = 1, calls
      x = mlib_step(x)
    end do
  end if
  call MPI_REDUCE(x, total, 1, MPI_INTEGER8, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) print '(A,I0,A,I0)', 'ranks ', nranks, ', sum ', total
  call MPI_FINALIZE(ierr)
end program fortran_app
